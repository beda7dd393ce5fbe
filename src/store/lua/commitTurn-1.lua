--[[
  Compare-and-set of a turn on its rev.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] expected rev
    ARGV[2] TurnRecord JSON (its rev must be expected rev + 1)
    ARGV[3] TTL, ms
    ARGV[4] 'extend': raise the TTL to ARGV[3] if it is lower (running, paused);
            'set': set it to ARGV[3] (completed, failed)

  Output: { code, rev }
     1  committed; rev is the new rev
    -1  not-found: no such turn (rev absent)
    -5  conflict: the stored rev differs; rev is the stored rev
]]
local key = KEYS[1]
local rev = redis.call('HGET', key, 'rev')
if not rev then
  return { -1 }
end
if rev ~= ARGV[1] then
  return { -5, tonumber(rev) }
end
local nextRev = tonumber(rev) + 1
redis.call('HSET', key, 'rev', tostring(nextRev), 'data', ARGV[2])
local ttl = tonumber(ARGV[3])
if ARGV[4] == 'set' then
  redis.call('PEXPIRE', key, ttl)
else
  local current = redis.call('PTTL', key)
  if current >= 0 and current < ttl then
    redis.call('PEXPIRE', key, ttl)
  end
end
return { 1, nextRev }
