--[[
  Creates a turn at rev 1 unless the key exists.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] the turn's head: TurnRecord JSON without `messages` (its rev must be 1) (field head)
    ARGV[2] TTL, ms
    ARGV[3..] its messages, one JSON each (fields m0, m1, …; their number in field mcount)

  Output:
     1  created
    -7  exists: nothing written
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return -7
end
local count = #ARGV - 2
for i = 1, count do
  redis.call('HSET', KEYS[1], 'm' .. (i - 1), ARGV[i + 2])
end
redis.call('HSET', KEYS[1], 'rev', '1', 'head', ARGV[1], 'mcount', tostring(count))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
