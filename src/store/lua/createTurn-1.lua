--[[
  Creates a turn at rev 1 unless the key exists.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] TurnRecord JSON (its rev must be 1)
    ARGV[2] TTL, ms

  Output:
     1  created
    -7  exists: nothing written
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return -7
end
redis.call('HSET', KEYS[1], 'rev', '1', 'data', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
