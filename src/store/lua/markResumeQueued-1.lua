--[[
  Notes that the resume job of a resolved ask was added (first call wins).

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] when, epoch ms

  Output:
     1  set by this call
     0  already set earlier: nothing changed
    -1  not-found: no such ask
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('HSETNX', KEYS[1], 'resumeQueuedAt', ARGV[1])
