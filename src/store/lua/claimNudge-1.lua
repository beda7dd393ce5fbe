--[[
  Claims one follow-up point of an open ask (a reminder or the escalation) before its thread reply is
  posted, so each point is sent at most once whatever retries and workers do.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] the point's id (`r<i>`: reminder i; `e`: the escalation)

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  claimed by this call: added to nudged, chg raised
     0  claimed before (by this job's earlier attempt, or another worker)
    -1  not-found
    -2  closed: the ask is not open (nothing is claimed)
]]
local key = KEYS[1]
local v = redis.call('HMGET', key, 'status', 'nudged')
if not v[1] then
  return { -1 }
end
if v[1] ~= 'open' then
  return { -2, redis.call('HGETALL', key) }
end
local nudged = v[2] or ','
if string.find(nudged, ',' .. ARGV[1] .. ',', 1, true) then
  return { 0, redis.call('HGETALL', key) }
end
redis.call('HSET', key, 'nudged', nudged .. ARGV[1] .. ',')
redis.call('HINCRBY', key, 'chg', 1)
return { 1, redis.call('HGETALL', key) }
