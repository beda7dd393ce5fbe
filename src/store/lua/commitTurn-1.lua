--[[
  Compare-and-set of a turn on its rev, writing only what changed: the head, and the messages from index
  ARGV[5] on (those before it are stored already and kept). A turn stored whole in field `data` (written
  before messages were stored one per field) is rewritten in the per-field layout: ARGV[5] must then be 0.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] expected rev
    ARGV[2] the turn's head: TurnRecord JSON without `messages` (its rev must be expected rev + 1)
    ARGV[3] TTL, ms
    ARGV[4] 'extend': raise the TTL to ARGV[3] if it is lower (running, paused);
            'set': set it to ARGV[3] (completed, failed)
    ARGV[5] messages kept: how many stored messages stay as they are
    ARGV[6..] the messages after them, one JSON each

  Output: { code, rev }
     1  committed; rev is the new rev
    -1  not-found: no such turn (rev absent)
    -5  conflict: the stored rev differs, or fewer messages are stored than ARGV[5] keeps; rev is the stored rev
]]
local key = KEYS[1]
local rev = redis.call('HGET', key, 'rev')
if not rev then
  return { -1 }
end
if rev ~= ARGV[1] then
  return { -5, tonumber(rev) }
end
local keep = tonumber(ARGV[5])
local stored = tonumber(redis.call('HGET', key, 'mcount') or '0')
local whole = redis.call('HEXISTS', key, 'data') == 1
if whole then
  stored = 0
end
if (whole and keep ~= 0) or keep > stored then
  return { -5, tonumber(rev) }
end
if whole then
  redis.call('HDEL', key, 'data')
end
local count = keep + #ARGV - 5
for i = count, stored - 1 do
  redis.call('HDEL', key, 'm' .. i)
end
for i = 6, #ARGV do
  redis.call('HSET', key, 'm' .. (keep + i - 6), ARGV[i])
end
local nextRev = tonumber(rev) + 1
redis.call('HSET', key, 'rev', tostring(nextRev), 'head', ARGV[2], 'mcount', tostring(count))
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
