--[[
  Creates a turn at rev 1 unless the key exists.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] the turn's head: TurnRecord JSON without `messages` (its rev must be 1) (field head)
    ARGV[2] TTL, ms
    ARGV[3] its messages as one JSON array (chunk field c0), or absent for none
    ARGV[4] how many messages that is (field mcount)

  Output:
     1  created
    -7  exists: nothing written
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return -7
end
local chunks = 0
if ARGV[3] then
  redis.call('HSET', KEYS[1], 'c0', ARGV[3])
  chunks = 1
end
redis.call('HSET', KEYS[1], 'rev', '1', 'head', ARGV[1], 'ccount', tostring(chunks), 'mcount', ARGV[4] or '0')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
