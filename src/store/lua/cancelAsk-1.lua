--[[
  The person who started the turn cancels an open ask, or the workspace uninstalled holdpoint (ARGV[4] = '1'):
  every unresolved question gets the given `canceled` resolution. Answers given earlier stay.

  Input:
    KEYS[1] ask hash   <p>:{t:<turnId>}:ask:<askId>

    ARGV[1] user id of the person canceling
    ARGV[2] QuestionResolution JSON written into every unresolved slot
    ARGV[3] now, epoch ms (stored as resolvedAt)
    ARGV[4] '1': canceled because the workspace uninstalled the app (no requester check), else '' or absent

  Output: { code, HGETALL of the ask after the script } ({ code } alone for -1)
     2  completed: the ask is now resolved (canceled)
    -1  not-found: no such ask
    -2  closed: the ask was already resolved
    -4  forbidden: the user is not the ask's requester (and ARGV[4] is not '1')
]]
local key = KEYS[1]
local fields = redis.call('HMGET', key, 'status', 'qcount', 'requestedBy')
local status = fields[1]
if not status then
  return { -1 }
end
if status ~= 'open' then
  return { -2, redis.call('HGETALL', key) }
end
if ARGV[4] ~= '1' and (ARGV[1] == '' or ARGV[1] ~= fields[3]) then
  return { -4, redis.call('HGETALL', key) }
end
local qcount = tonumber(fields[2]) or 0
for i = 0, qcount - 1 do
  redis.call('HSETNX', key, 'r' .. i, ARGV[2])
end
redis.call('HSET', key, 'status', 'resolved', 'resolvedAt', ARGV[3])
return { 2, redis.call('HGETALL', key) }
