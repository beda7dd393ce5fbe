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
    ARGV[7]  the most questions an ask can have (unused; kept for callers of the earlier layout)
    ARGV[8]  quorum: distinct people whose equal votes resolve the question ('1': the first answer does)
    ARGV[9]  this answer's vote (equal votes count together)
    ARGV[10] '1' when this answer decides at once whatever the quorum (an approval's Deny), else '0'

  Output: { code } for -1, else { code, def, HGETALL of the ask after the script without def } (def nil
  when ARGV[6] matched dsum)
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
local v = redis.call('HMGET', key, 'status', 'qcount', 'amode', 'requestedBy', 'ausers', 'dusers', 'dsum')
local status = v[1]
if not status then
  return { -1 }
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
elseif index == nil or index < 0 or index >= qcount or index % 1 ~= 0 then
  code = -6
elseif redis.call('HEXISTS', key, 'r' .. index) == 1 then
  code = -3
elseif not allowed() then
  code = -4
end

local resolution = ARGV[2]
local quorum = tonumber(ARGV[8]) or 1
if code == 1 and quorum > 1 and ARGV[10] ~= '1' then
  local field = 'v' .. index
  local raw = redis.call('HGET', key, field)
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
    if #voters < quorum then
      redis.call('HSET', key, field, cjson.encode(votes))
      redis.call('HINCRBY', key, 'chg', 1)
      code = 3
    else
      redis.call('HSET', key, field, cjson.encode(votes))
      -- ARGV[2] is a JSON object without voters: add them before its closing brace (re-encoding it with
      -- cjson would turn an empty list into {}).
      resolution = string.sub(resolution, 1, -2) .. ',"voters":' .. cjson.encode(voters) .. '}'
    end
  end
end

if code == 1 then
  code = 2
  for i = 0, qcount - 1 do
    if i ~= index and redis.call('HEXISTS', key, 'r' .. i) == 0 then
      code = 1
    end
  end
  if code == 2 then
    redis.call('HSET', key, 'r' .. index, resolution, 'status', 'resolved', 'resolvedAt', ARGV[5])
  else
    redis.call('HSET', key, 'r' .. index, resolution)
  end
end

local all = redis.call('HGETALL', key)
local rest = {}
local def = false
for i = 1, #all, 2 do
  if all[i] == 'def' then
    if v[7] ~= ARGV[6] then
      def = all[i + 1]
    end
  else
    rest[#rest + 1] = all[i]
    rest[#rest + 1] = all[i + 1]
  end
end
return { code, def, rest }
