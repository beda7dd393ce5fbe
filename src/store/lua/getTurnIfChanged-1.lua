--[[
  Reads a turn unless the reader already holds its stored record: the reader wrote rev ARGV[1] itself (see
  RedisTurnStore.getTurn), and every write of a turn sets a new rev, so an equal rev means an equal record.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] the rev of the record the reader holds

  Output: 1 when the stored rev is ARGV[1] (nothing else is sent); else the turn's HGETALL as a flat list of
  fields and values (empty when the turn is gone).
]]
if redis.call('HGET', KEYS[1], 'rev') == ARGV[1] then
  return 1
end
return redis.call('HGETALL', KEYS[1])
