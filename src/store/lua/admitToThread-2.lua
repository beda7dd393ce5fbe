--[[
  One turn at a time per thread. A free thread (or one already held by this turn) is taken;
  otherwise the item is appended to the thread's inbox (once: an item already queued is not added again).

  Input:
    KEYS[1] holder string  <p>:{th:<threadKey>}:holder
    KEYS[2] inbox list     <p>:{th:<threadKey>}:inbox

    ARGV[1] turn id
    ARGV[2] item (JSON string with a turnId field)
    ARGV[3] TTL of both keys, ms (refreshed on every change)

  Output:
     1  start: the turn holds the thread
     0  queued: the item waits in the inbox
]]
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return 1
end
if not redis.call('LPOS', KEYS[2], ARGV[2]) then
  redis.call('RPUSH', KEYS[2], ARGV[2])
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
