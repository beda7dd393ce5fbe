--[[
  The holding turn gives up the thread. The next inbox item whose JSON has a non-empty string turnId
  takes the thread (malformed items are dropped); with an empty inbox the thread is freed.

  Input:
    KEYS[1] holder string  <p>:{th:<threadKey>}:holder
    KEYS[2] inbox list     <p>:{th:<threadKey>}:inbox

    ARGV[1] turn id giving up the thread
    ARGV[2] TTL of both keys, ms

  Output:
    the popped item (its turn now holds the thread), or
    nil when the thread is now free, or when ARGV[1] did not hold it (then nothing changed)
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return false
end
while true do
  local item = redis.call('LPOP', KEYS[2])
  if not item then
    redis.call('DEL', KEYS[1])
    return false
  end
  local ok, decoded = pcall(cjson.decode, item)
  if ok and type(decoded) == 'table' and type(decoded.turnId) == 'string' and decoded.turnId ~= '' then
    redis.call('SET', KEYS[1], decoded.turnId, 'PX', ARGV[2])
    if redis.call('EXISTS', KEYS[2]) == 1 then
      redis.call('PEXPIRE', KEYS[2], ARGV[2])
    end
    return item
  end
end
