--[[
  A late answer: an allowed answerer replaces the assumed resolution of one question of a resolved ask,
  once per question, within the override window.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] question index, 0-based
    ARGV[2] AnswerOverride JSON (stored as is in field o<index>)
    ARGV[3] user id of the person changing the answer
    ARGV[4] '1' when the surface found the person allowed beyond the stored lists (see answerQuestion)
    ARGV[5] now, epoch ms
    ARGV[6] how long after resolvedAt a change is taken, ms

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  recorded: o<index> set, chg raised
    -1  not-found
    -2  closed: the ask is still open, or the window has passed
    -3  already-resolved: the question was not assumed (a person answered it, or it was canceled)
    -4  forbidden: the person may not answer this ask
    -6  invalid: question index out of range
    -9  duplicate: the question's answer was already changed (first change wins)
]]
local key = KEYS[1]
local v = redis.call('HMGET', key, 'status', 'qcount', 'amode', 'requestedBy', 'ausers', 'dusers', 'resolvedAt')
if not v[1] then
  return { -1 }
end
local index = tonumber(ARGV[1])
local now = tonumber(ARGV[5])
if v[1] ~= 'resolved' or now > (tonumber(v[7]) or 0) + tonumber(ARGV[6]) then
  return { -2, redis.call('HGETALL', key) }
end
if index == nil or index < 0 or index >= (tonumber(v[2]) or 0) or index % 1 ~= 0 then
  return { -6, redis.call('HGETALL', key) }
end
local stored = redis.call('HGET', key, 'r' .. index)
if not stored or cjson.decode(stored).status ~= 'assumed' then
  return { -3, redis.call('HGETALL', key) }
end
local user = ARGV[3]
local allowed = v[3] == 'anyone'
if not allowed and user ~= '' then
  allowed = ARGV[4] == '1' or string.find(v[6] or '', ',' .. user .. ',', 1, true) ~= nil
    or (v[3] == 'requester' and user == v[4])
    or (v[3] == 'list' and string.find(v[5] or '', ',' .. user .. ',', 1, true) ~= nil)
end
if not allowed then
  return { -4, redis.call('HGETALL', key) }
end
if redis.call('HSETNX', key, 'o' .. index, ARGV[2]) == 0 then
  return { -9, redis.call('HGETALL', key) }
end
redis.call('HINCRBY', key, 'chg', 1)
return { 1, redis.call('HGETALL', key) }
