--[[
  Records one person's answer to one question of an ask (the answer-once step).

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] question index, 0-based
    ARGV[2] QuestionResolution JSON (stored as is in field r<index>)
    ARGV[3] user id of the person answering
    ARGV[4] '1' when the surface found the person in one of the policy's user groups, else '0'
    ARGV[5] now, epoch ms (stored as resolvedAt when this answer completes the ask)
    ARGV[6] the definition digest (field dsum) the caller has cached, or '': def is sent only when it differs
    ARGV[7] the most questions an ask can have (fields r0..r<ARGV[7]-1> are read)

  Output: { code } for -1, else { code, def, dsum, status, shownAt, deadline, messageRef, resumeQueuedAt,
  r0, ..., r<qcount-1> } as they are after the script (nil when absent; def nil when ARGV[6] matched dsum;
  for codes 1 and 2, r<ARGV[1]> nil: it is ARGV[2])
     1  recorded: the answer is stored, other questions are still open
     2  completed: the answer is stored and it was the last open question; status is now resolved
    -1  not-found: no such ask
    -2  closed: the ask is not open
    -3  already-resolved: that question already has a resolution
    -4  forbidden: the answerer policy does not allow this person
    -6  invalid: question index out of range

  Checks run in this order: exists, open, index, unresolved, policy. This is the hot path of a click: one
  HMGET reads everything, one HSET writes, and the reply leaves out the 1-3 KB def when the caller has it.
]]
local key = KEYS[1]
local fields = { 'status', 'qcount', 'amode', 'requestedBy', 'ausers', 'dsum', 'shownAt', 'deadline',
  'messageRef', 'resumeQueuedAt' }
local R = #fields + 1 -- v[R + i] is r<i>
for i = 0, tonumber(ARGV[7]) - 1 do
  fields[R + i] = 'r' .. i
end
local v = redis.call('HMGET', key, unpack(fields))
local status = v[1]
if not status then
  return { -1 }
end
local qcount = tonumber(v[2]) or 0
local index = tonumber(ARGV[1])
local code = 1
if status ~= 'open' then
  code = -2
elseif index == nil or index < 0 or index >= qcount or index % 1 ~= 0 then
  code = -6
elseif v[R + index] then
  code = -3
else
  local mode = v[3]
  local user = ARGV[3]
  local allowed = false
  if mode == 'anyone' then
    allowed = true
  elseif mode == 'requester' then
    allowed = user ~= '' and user == v[4]
  elseif mode == 'list' then
    allowed = ARGV[4] == '1' or (user ~= '' and string.find(v[5] or '', ',' .. user .. ',', 1, true) ~= nil)
  end
  if not allowed then
    code = -4
  end
end
if code == 1 then
  v[R + index] = ARGV[2]
  code = 2
  for i = 0, qcount - 1 do
    if not v[R + i] then
      code = 1
    end
  end
  if code == 2 then
    redis.call('HSET', key, 'r' .. index, ARGV[2], 'status', 'resolved', 'resolvedAt', ARGV[5])
    v[1] = 'resolved'
  else
    redis.call('HSET', key, 'r' .. index, ARGV[2])
  end
end
local reply = { code, false, v[6], v[1], v[7], v[8], v[9], v[10] }
if v[6] ~= ARGV[6] then
  reply[2] = redis.call('HGET', key, 'def')
end
for i = 0, qcount - 1 do
  reply[9 + i] = v[R + i]
end
if code > 0 then
  reply[9 + index] = false -- the resolution this call stored: the caller sent it
end
return reply
