--[[
  Records one person's answer to one question of an ask (the answer-once step), or their quorum vote.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1]  question index, 0-based
    ARGV[2]  QuestionResolution JSON (stored as is in field r<index>, or with `voters` added by a quorum)
    ARGV[3]  user id of the person answering
    ARGV[4]  '1' when the surface found the person allowed beyond the stored lists (in one of the policy's
             user groups, or an escalation target once the ask escalated), else '0'
    ARGV[5]  now, epoch ms (stored as resolvedAt when this answer completes the ask)
    ARGV[6]  the definition digest (field dsum) the caller has cached, or '': def is sent only when it differs
    ARGV[7]  the most questions an ask can have (fields r, v and o 0..ARGV[7]-1 are read)
    ARGV[8]  quorum: distinct people whose equal votes resolve the question ('1': the first answer does)
    ARGV[9]  this answer's vote (equal votes count together)
    ARGV[10] '1' when this answer decides at once whatever the quorum (an approval's Deny), else '0'

  Output: { code } for -1, else { code, def, values } (def nil when ARGV[6] matched dsum): the values of the
  fields in `names` below (nil when absent), as they are after the script, read by one HMGET; never def
  unless the caller lacks it, never HGETALL (the click's hot path). `ANSWER_REPLY_FIELDS` in ask-hash.ts is
  the same list.
     1  recorded: the answer is stored, other questions are still open
     2  completed: the answer is stored and it was the last open question; status is now resolved
     3  voted: a quorum vote was counted (field v<index>, a JSON list of [user, vote]); not resolved yet
    -1  not-found: no such ask
    -2  closed: the ask is not open
    -3  already-resolved: that question already has a resolution
    -4  forbidden: the answerer policy does not allow this person
    -6  invalid: question index out of range
    -9  duplicate: this person already voted on that question (one person counts once)

  Who may answer: anyone (amode anyone); else a delegate (dusers), a person the surface vouched for
  (ARGV[4]), the requester (amode requester) or a listed user (amode list, ausers). Checks run in this
  order: exists, open, index, unresolved, policy, vote.
]]
local key = KEYS[1]
local names = { 'status', 'qcount', 'amode', 'requestedBy', 'ausers', 'dusers', 'dsum', 'shownAt', 'deadline',
  'messageRef', 'resumeQueuedAt', 'chg', 'resolvedAt', 'extendedBy', 'nudged' }
local FIXED = #names
local max = tonumber(ARGV[7]) or 3
for i = 0, max - 1 do
  names[#names + 1] = 'r' .. i
  names[#names + 1] = 'v' .. i
  names[#names + 1] = 'o' .. i
end
local v = redis.call('HMGET', key, unpack(names))
local status = v[1]
if not status then
  return { -1 }
end
-- v[at(kind, i)] is field <kind><i>
local function at(kind, i)
  local offset = kind == 'r' and 1 or (kind == 'v' and 2 or 3)
  return FIXED + i * 3 + offset
end
local qcount = tonumber(v[2]) or 0
local index = tonumber(ARGV[1])
local user = ARGV[3]
local code = 1

local function allowed()
  local mode = v[3]
  if mode == 'anyone' then
    return true
  end
  if user == '' then
    return false
  end
  if ARGV[4] == '1' or string.find(v[6] or '', ',' .. user .. ',', 1, true) then
    return true
  end
  if mode == 'requester' then
    return user == v[4]
  end
  return mode == 'list' and string.find(v[5] or '', ',' .. user .. ',', 1, true) ~= nil
end

if status ~= 'open' then
  code = -2
elseif index == nil or index < 0 or index >= qcount or index >= max or index % 1 ~= 0 then
  code = -6
elseif v[at('r', index)] then
  code = -3
elseif not allowed() then
  code = -4
end

local resolution = ARGV[2]
local quorum = tonumber(ARGV[8]) or 1
if code == 1 and quorum > 1 and ARGV[10] ~= '1' then
  local raw = v[at('v', index)]
  local votes = {}
  if raw then
    votes = cjson.decode(raw)
  end
  local voters = {}
  for _, pair in ipairs(votes) do
    if pair[1] == user then
      code = -9
    end
    if pair[2] == ARGV[9] then
      voters[#voters + 1] = pair[1]
    end
  end
  if code == 1 then
    votes[#votes + 1] = { user, ARGV[9] }
    voters[#voters + 1] = user
    local encoded = cjson.encode(votes)
    v[at('v', index)] = encoded
    if #voters < quorum then
      redis.call('HSET', key, 'v' .. index, encoded)
      v[12] = tostring(redis.call('HINCRBY', key, 'chg', 1))
      code = 3
    else
      redis.call('HSET', key, 'v' .. index, encoded)
      -- ARGV[2] is a JSON object without voters: add them before its closing brace (re-encoding it with
      -- cjson would turn an empty list into {}).
      resolution = string.sub(resolution, 1, -2) .. ',"voters":' .. cjson.encode(voters) .. '}'
    end
  end
end

if code == 1 then
  code = 2
  for i = 0, qcount - 1 do
    if i ~= index and not v[at('r', i)] then
      code = 1
    end
  end
  v[at('r', index)] = resolution
  if code == 2 then
    redis.call('HSET', key, 'r' .. index, resolution, 'status', 'resolved', 'resolvedAt', ARGV[5])
    v[1] = 'resolved'
    v[13] = ARGV[5]
  else
    redis.call('HSET', key, 'r' .. index, resolution)
  end
end

local def = false
if v[7] ~= ARGV[6] then
  def = redis.call('HGET', key, 'def')
end
-- Values only, in the order of `names` (ask-hash.ts ANSWER_REPLY_FIELDS holds the same list).
return { code, def, v }
