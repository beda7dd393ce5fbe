--[[
  Pauses a turn and creates its ask in one step: compare-and-set on the turn rev, then the ask hash
  with status open and no resolutions. Nothing is written unless both succeed.

  Input:
    KEYS[1] turn hash  <p>:{t:<turnId>}:turn
    KEYS[2] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1]  expected rev
    ARGV[2]  the turn's head: TurnRecord JSON without `messages` (its rev must be expected rev + 1)
    ARGV[3]  TTL of both keys, ms (timeoutMs + retention); the turn TTL is only raised, never lowered
    ARGV[4]  AskDefinition JSON (field def, written once)
    ARGV[5]  question count (field qcount)
    ARGV[6]  requester user id (field requestedBy)
    ARGV[7]  answerer mode: anyone | requester | list (field amode)
    ARGV[8]  listed user ids as ',U1,U2,' (field ausers)
    ARGV[9]  timeout, ms (field timeoutMs)
    ARGV[10] createdAt, epoch ms (field createdAt)
    ARGV[11] digest of the AskDefinition JSON (field dsum, see definition-cache.ts)
    ARGV[12] chunks of the turn's messages kept (see commitTurn-1.lua; 0 for a turn stored whole in field
             `data`, which is then rewritten in chunks)
    ARGV[13] how many messages the turn has after this (field mcount)
    ARGV[14] the messages after the kept chunks as one JSON array (the next chunk), or absent for none

  Output: { code, rev }
     1  paused; rev is the new rev
    -1  not-found: no such turn
    -5  conflict: the stored rev differs, or fewer chunks are stored than ARGV[12] keeps; rev is the stored rev
    -7  exists: the ask id is taken; rev is the stored rev
]]
local turn = KEYS[1]
local ask = KEYS[2]
local rev = redis.call('HGET', turn, 'rev')
if not rev then
  return { -1 }
end
if rev ~= ARGV[1] then
  return { -5, tonumber(rev) }
end
if redis.call('EXISTS', ask) == 1 then
  return { -7, tonumber(rev) }
end
local keep = tonumber(ARGV[12])
local stored = tonumber(redis.call('HGET', turn, 'ccount') or '0')
local whole = redis.call('HEXISTS', turn, 'data') == 1
if whole then
  stored = 0
end
if (whole and keep ~= 0) or keep > stored then
  return { -5, tonumber(rev) }
end
if whole then
  redis.call('HDEL', turn, 'data')
end
for i = keep, stored - 1 do
  redis.call('HDEL', turn, 'c' .. i)
end
local chunks = keep
if ARGV[14] then
  redis.call('HSET', turn, 'c' .. keep, ARGV[14])
  chunks = keep + 1
end
local nextRev = tonumber(rev) + 1
local ttl = tonumber(ARGV[3])
redis.call('HSET', turn, 'rev', tostring(nextRev), 'head', ARGV[2], 'ccount', tostring(chunks), 'mcount', ARGV[13])
local current = redis.call('PTTL', turn)
if current >= 0 and current < ttl then
  redis.call('PEXPIRE', turn, ttl)
end
redis.call('HSET', ask, 'def', ARGV[4], 'status', 'open', 'qcount', ARGV[5], 'requestedBy', ARGV[6],
  'amode', ARGV[7], 'ausers', ARGV[8], 'timeoutMs', ARGV[9], 'createdAt', ARGV[10], 'dsum', ARGV[11])
redis.call('PEXPIRE', ask, ttl)
return { 1, nextRev }
