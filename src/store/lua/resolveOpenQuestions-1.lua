--[[
  Resolves every still-unresolved question of an open ask with a fallback (timeout, not shown).
  Answers given earlier stay.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1]  now, epoch ms (stored as resolvedAt)
    ARGV[2]  '1': only when due (the timeout): nothing changes while the stored deadline is after ARGV[1]
    ARGV[3]  the definition digest the caller holds (its `dsum`), or '': when it equals the stored `dsum`,
             the reply leaves `def` out (the caller has that definition parsed)
    ARGV[4+i] QuestionResolution JSON for question i (0-based), one per question

  Output: { code, HGETALL of the ask after the script, without `def` when ARGV[3] matched }
          ({ code } alone for -1)
     2  completed: the ask is now resolved
    -1  not-found: no such ask
    -2  closed: the ask was already resolved
    -6  invalid: fewer fallbacks than questions (nothing written)
    -8  not-due: ARGV[2] is '1' and the deadline was moved past now (an extension came first)

  An extension (extendAsk) and the timeout are ordered by Redis: whichever script runs first wins.
]]
local key = KEYS[1]
local fields = redis.call('HMGET', key, 'status', 'qcount', 'deadline', 'dsum')
local status = fields[1]
if not status then
  return { -1 }
end

-- The ask hash as field/value pairs, without `def` when the caller holds the definition of this digest.
local function hash_reply()
  local all = redis.call('HGETALL', key)
  if ARGV[3] == '' or fields[4] ~= ARGV[3] then
    return all
  end
  local out = {}
  for i = 1, #all, 2 do
    if all[i] ~= 'def' then
      out[#out + 1] = all[i]
      out[#out + 1] = all[i + 1]
    end
  end
  return out
end

if status ~= 'open' then
  return { -2, hash_reply() }
end
if ARGV[2] == '1' and fields[3] and tonumber(fields[3]) > tonumber(ARGV[1]) then
  return { -8, hash_reply() }
end
local qcount = tonumber(fields[2]) or 0
if #ARGV - 3 < qcount then
  return { -6, hash_reply() }
end
for i = 0, qcount - 1 do
  redis.call('HSETNX', key, 'r' .. i, ARGV[i + 4])
end
redis.call('HSET', key, 'status', 'resolved', 'resolvedAt', ARGV[1])
return { 2, hash_reply() }
