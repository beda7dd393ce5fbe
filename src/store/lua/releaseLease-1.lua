--[[
  Releases a turn lease, only when it is still held with the caller's token (compare-and-delete).

  Input:
    KEYS[1] lease key   <p>:{t:<turnId>}:lease
    ARGV[1] token the lease was taken with

  Output:
     1  released
     0  unchanged: the lease is held by another token or has expired
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
