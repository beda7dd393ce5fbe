--[[
  Compare-and-set of a turn on its rev, writing only what changed: the head, and the messages after the
  chunks it keeps, as one new chunk. A turn's messages are stored in chunks (fields c0, c1, …; one per
  commit's new messages), so a step writes its new messages, not the history. A turn stored whole in field
  `data` (before chunks) is rewritten in chunks: ARGV[5] must then be 0.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn

    ARGV[1] expected rev
    ARGV[2] the turn's head: TurnRecord JSON without `messages` (its rev must be expected rev + 1)
    ARGV[3] TTL, ms
    ARGV[4] 'extend': raise the TTL to ARGV[3] if it is lower (running, paused);
            'set': set it to ARGV[3] (completed, failed)
    ARGV[5] chunks kept: c0 … c<ARGV[5] - 1> stay as they are
    ARGV[6] how many messages the turn has after this commit (field mcount)
    ARGV[7] the messages after the kept chunks as one JSON array (the next chunk), or absent for none

  Output: { code, rev }
     1  committed; rev is the new rev
    -1  not-found: no such turn (rev absent)
    -5  conflict: the stored rev differs, or fewer chunks are stored than ARGV[5] keeps; rev is the stored rev
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
local stored = tonumber(redis.call('HGET', key, 'ccount') or '0')
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
for i = keep, stored - 1 do
  redis.call('HDEL', key, 'c' .. i)
end
local chunks = keep
if ARGV[7] then
  redis.call('HSET', key, 'c' .. keep, ARGV[7])
  chunks = keep + 1
end
local nextRev = tonumber(rev) + 1
redis.call('HSET', key, 'rev', tostring(nextRev), 'head', ARGV[2], 'ccount', tostring(chunks), 'mcount', ARGV[6])
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
