--[[
  Removes claimed timers that their sweep finished, each only while it still carries that sweep's lease
  (compare-and-delete): a timer scheduled again meanwhile (a new deadline, the next reminder) has another
  score and stays.

  Input:
    KEYS[1] due set   <p>:due
    ARGV[1] lease end the members were claimed with (epoch ms)
    ARGV[2..] members

  Output: how many were removed.
]]
local lease = tonumber(ARGV[1])
local removed = 0
for i = 2, #ARGV do
  if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[i])) == lease then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed
