--[[
  Moves the deadline of an open ask later ("+15 min" in its menu), only when the whole step fits before its
  latest deadline.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>
    KEYS[2] turn hash  <p>:{t:<turnId>}:turn (its TTL follows the deadline; absent for a program's ask)

    ARGV[1] now, epoch ms
    ARGV[2] how much later, ms
    ARGV[3] the latest deadline, epoch ms (shownAt + ASK_MAX_DEADLINE, from the definition)
    ARGV[4] user id of the person extending
    ARGV[5] '1' when the surface found the person allowed beyond the stored lists (see answerQuestion)
    ARGV[6] retention after the deadline, ms (the keys' TTL is raised to deadline + this)

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     1  extended: deadline, extendedBy, extendedAt set; chg raised
    -1  not-found
    -2  closed: the ask is resolved, not shown yet, or its deadline has passed (the timeout decides)
    -4  forbidden: the person may not answer this ask
    -10 at-limit: the step would pass the latest deadline (nothing moved)

  The timeout (resolveOpenQuestions with ARGV[2] '1') re-reads the deadline: of an extension and a timeout
  at the deadline, whichever Redis runs first wins, and the other changes nothing.
]]
local key = KEYS[1]
local v = redis.call('HMGET', key, 'status', 'deadline', 'amode', 'requestedBy', 'ausers', 'dusers')
if not v[1] then
  return { -1 }
end
local now = tonumber(ARGV[1])
local deadline = tonumber(v[2])
if v[1] ~= 'open' or deadline == nil or deadline <= now then
  return { -2, redis.call('HGETALL', key) }
end
local user = ARGV[4]
local allowed = v[3] == 'anyone'
if not allowed and user ~= '' then
  allowed = ARGV[5] == '1' or string.find(v[6] or '', ',' .. user .. ',', 1, true) ~= nil
    or (v[3] == 'requester' and user == v[4])
    or (v[3] == 'list' and string.find(v[5] or '', ',' .. user .. ',', 1, true) ~= nil)
end
if not allowed then
  return { -4, redis.call('HGETALL', key) }
end
local latest = tonumber(ARGV[3])
local moved = deadline + tonumber(ARGV[2])
if moved > latest then
  -- Never a smaller step than the one offered: past the latest deadline, nothing moves.
  return { -10, redis.call('HGETALL', key) }
end
redis.call('HSET', key, 'deadline', string.format('%d', moved), 'extendedBy', user, 'extendedAt', ARGV[1])
redis.call('HINCRBY', key, 'chg', 1)
local ttl = moved + tonumber(ARGV[6]) - now
for _, k in ipairs(KEYS) do
  local current = redis.call('PTTL', k)
  if current >= 0 and current < ttl then
    redis.call('PEXPIRE', k, ttl)
  end
end
return { 1, redis.call('HGETALL', key) }
