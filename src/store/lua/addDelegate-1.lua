--[[
  "Ask someone else…": an allowed answerer of an open ask makes another person an answerer too.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] user id of the person delegating
    ARGV[2] '1' when the surface found that person allowed beyond the stored lists (see answerQuestion)
    ARGV[3] user id of the new answerer

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  added to dusers; chg raised
     0  already an answerer by delegation: nothing changed
    -1  not-found
    -2  closed: the ask is not open
    -4  forbidden: the person delegating may not answer this ask
]]
local key = KEYS[1]
local v = redis.call('HMGET', key, 'status', 'amode', 'requestedBy', 'ausers', 'dusers')
if not v[1] then
  return { -1 }
end
if v[1] ~= 'open' then
  return { -2, redis.call('HGETALL', key) }
end
local user = ARGV[1]
local dusers = v[5] or ','
local allowed = v[2] == 'anyone'
if not allowed and user ~= '' then
  allowed = ARGV[2] == '1' or string.find(dusers, ',' .. user .. ',', 1, true) ~= nil
    or (v[2] == 'requester' and user == v[3])
    or (v[2] == 'list' and string.find(v[4] or '', ',' .. user .. ',', 1, true) ~= nil)
end
if not allowed then
  return { -4, redis.call('HGETALL', key) }
end
if string.find(dusers, ',' .. ARGV[3] .. ',', 1, true) then
  return { 0, redis.call('HGETALL', key) }
end
redis.call('HSET', key, 'dusers', dusers .. ARGV[3] .. ',')
redis.call('HINCRBY', key, 'chg', 1)
return { 1, redis.call('HGETALL', key) }
