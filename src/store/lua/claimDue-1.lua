--[[
  Claims up to `limit` due timers of the due set: each member scored at or before `now` is re-scored to the
  lease's end, so that no other sweep takes it meanwhile, and a sweep that dies leaves it due again when the
  lease ends (then the next sweep takes it). One key, so it runs on a Redis Cluster too.

  Input:
    KEYS[1] due set   <p>:due   (zset, member `<kind>:<turnId>|<askId>`, score due epoch ms)
    ARGV[1] now (epoch ms)
    ARGV[2] limit (members at most)
    ARGV[3] lease end (epoch ms, later than now)

  Output: the claimed members, earliest first.
]]
local members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #members do
  redis.call('ZADD', KEYS[1], ARGV[3], members[i])
end
return members
