--[[
  Records that the surface showed an ask (first call wins). Sets shownAt, deadline = shownAt + timeoutMs
  and messageRef, and extends the TTL of the ask and its turn to at least deadline + retention.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn
    KEYS[2] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] shownAt, epoch ms
    ARGV[2] messageRef (ignored unless ARGV[3] is '1')
    ARGV[3] '1' when a messageRef is given, else '0'
    ARGV[4] now, epoch ms (to turn the absolute expiry into a TTL)
    ARGV[5] retention after the deadline, ms

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  set by this call
     0  already shown: nothing changed
    -1  not-found: no such ask
]]
local ask = KEYS[2]
local fields = redis.call('HMGET', ask, 'status', 'shownAt', 'timeoutMs')
if not fields[1] then
  return { -1 }
end
if fields[2] then
  return { 0, redis.call('HGETALL', ask) }
end
local shownAt = tonumber(ARGV[1])
local deadline = shownAt + (tonumber(fields[3]) or 0)
redis.call('HSET', ask, 'shownAt', ARGV[1], 'deadline', string.format('%d', deadline))
if ARGV[3] == '1' then
  redis.call('HSET', ask, 'messageRef', ARGV[2])
end
local ttl = deadline + tonumber(ARGV[5]) - tonumber(ARGV[4])
for _, key in ipairs(KEYS) do
  local current = redis.call('PTTL', key)
  if current >= 0 and current < ttl then
    redis.call('PEXPIRE', key, ttl)
  end
end
return { 1, redis.call('HGETALL', ask) }
