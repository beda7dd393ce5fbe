--[[
  Records the decision on a thread reply that was offered to its author as the answer to an open free-text
  question (Use / Not an answer). The first decision stands; a later click (a double click, a second
  process) reads it back. The answer itself is stored by answerQuestion-1.lua, which decides once.

  Input:
    KEYS[1] held reply hash   <p>:slack:reply:<channel>:<ts>   (fields data, user, decision)

    ARGV[1] decision: `use` or `dismiss`
    ARGV[2] the clicking user's id

  Output: { code, decision, data }
     1  decided by this call: decision is ARGV[1]
     0  decided before: decision is the earlier one (it may differ from ARGV[1])
    -1  not-found: nothing is held under the key (expired, or never offered)
    -4  forbidden: the clicking user did not write the reply (nothing changes)
]]
local key = KEYS[1]
local v = redis.call('HMGET', key, 'user', 'decision', 'data')
if not v[3] then
  return { -1 }
end
if v[1] ~= ARGV[2] then
  return { -4 }
end
if v[2] then
  return { 0, v[2], v[3] }
end
redis.call('HSET', key, 'decision', ARGV[1])
return { 1, ARGV[1], v[3] }
