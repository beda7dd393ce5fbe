--[[
  Extends a turn lease, only when it is still held with the caller's token (compare-and-expire).

  Input:
    KEYS[1] lease key   <p>:{t:<turnId>}:lease
    ARGV[1] token the lease was taken with
    ARGV[2] new time to live, ms

  Output:
     1  renewed
     0  unchanged: the lease is held by another token or has expired (the caller lost it)
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
