--[[
  Opens an ask that belongs to no turn (its own scope: an ask from the HTTP API, MCP or the CLI): the ask
  hash with status open and no resolutions, written once. The same fields as pauseTurn-2.lua writes for a
  turn's ask, so every other transition treats both alike.

  Input:
    KEYS[1] ask hash   <p>:{t:<scope>}:ask:<askId>

    ARGV[1]  TTL of the key, ms (timeoutMs + retention)
    ARGV[2]  AskDefinition JSON (field def, written once)
    ARGV[3]  question count (field qcount)
    ARGV[4]  requester (field requestedBy): for an API ask, its token's name
    ARGV[5]  answerer mode: anyone | requester | list (field amode)
    ARGV[6]  listed user ids as ',U1,U2,' (field ausers)
    ARGV[7]  timeout, ms (field timeoutMs)
    ARGV[8]  createdAt, epoch ms (field createdAt)
    ARGV[9]  digest of the AskDefinition JSON (field dsum, see definition-cache.ts)

  Output: { code }
     1  opened
    -7  exists: the ask id is taken (nothing changed)
]]
local ask = KEYS[1]
if redis.call('EXISTS', ask) == 1 then
  return { -7 }
end
redis.call('HSET', ask, 'def', ARGV[2], 'status', 'open', 'qcount', ARGV[3], 'requestedBy', ARGV[4],
  'amode', ARGV[5], 'ausers', ARGV[6], 'timeoutMs', ARGV[7], 'createdAt', ARGV[8], 'dsum', ARGV[9])
redis.call('PEXPIRE', ask, tonumber(ARGV[1]))
return { 1 }
