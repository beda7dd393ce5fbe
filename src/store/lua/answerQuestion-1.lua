--[[
  Records one person's answer to one question of an ask (the answer-once step).

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] question index, 0-based
    ARGV[2] QuestionResolution JSON (stored as is in field r<index>)
    ARGV[3] user id of the person answering
    ARGV[4] '1' when the surface found the person in one of the policy's user groups, else '0'
    ARGV[5] now, epoch ms (stored as resolvedAt when this answer completes the ask)

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  recorded: the answer is stored, other questions are still open
     2  completed: the answer is stored and it was the last open question; status is now resolved
    -1  not-found: no such ask
    -2  closed: the ask is not open
    -3  already-resolved: that question already has a resolution
    -4  forbidden: the answerer policy does not allow this person
    -6  invalid: question index out of range

  Checks run in this order: exists, open, index, unresolved, policy.
]]
local key = KEYS[1]
local fields = redis.call('HMGET', key, 'status', 'qcount', 'amode', 'requestedBy', 'ausers')
local status = fields[1]
if not status then
  return { -1 }
end
if status ~= 'open' then
  return { -2, redis.call('HGETALL', key) }
end
local index = tonumber(ARGV[1])
local qcount = tonumber(fields[2])
if index == nil or qcount == nil or index < 0 or index >= qcount or index % 1 ~= 0 then
  return { -6, redis.call('HGETALL', key) }
end
local slot = 'r' .. index
if redis.call('HEXISTS', key, slot) == 1 then
  return { -3, redis.call('HGETALL', key) }
end
local mode = fields[3]
local user = ARGV[3]
local allowed = false
if mode == 'anyone' then
  allowed = true
elseif mode == 'requester' then
  allowed = user ~= '' and user == fields[4]
elseif mode == 'list' then
  allowed = ARGV[4] == '1' or (user ~= '' and string.find(fields[5] or '', ',' .. user .. ',', 1, true) ~= nil)
end
if not allowed then
  return { -4, redis.call('HGETALL', key) }
end
redis.call('HSET', key, slot, ARGV[2])
for i = 0, qcount - 1 do
  if redis.call('HEXISTS', key, 'r' .. i) == 0 then
    return { 1, redis.call('HGETALL', key) }
  end
end
redis.call('HSET', key, 'status', 'resolved', 'resolvedAt', ARGV[5])
return { 2, redis.call('HGETALL', key) }
