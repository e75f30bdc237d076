-- Exercises Lua's own C paths that call through pointers: C functions (print,
-- string.format), the allocator (tables, strings, gc), load with a reader and
-- string.dump with a writer, io files (closef), errors under pcall, coroutines,
-- warnings, and a __gc metamethod at close.
local t = {}
for i = 1, 2000 do t[i] = string.format("%d-%s", i, string.rep("x", i % 7)) end
collectgarbage()
print(#t, t[10])
local f = load("return 1 + ...")
print(f(41))
local dumped = string.dump(f)
print(load(dumped)(1))
local pieces = {"return ", "2", " * 21"}
local k = 0
print(load(function() k = k + 1; return pieces[k] end)())
local name = os.tmpname()
local h = io.open(name, "w"); h:write("line1\nline2\n"); h:close()
for l in io.lines(name) do io.write(l, ";") end print()
local p = io.popen("echo popen"); print(p:read("a")); p:close()
os.remove(name)
print(pcall(error, "boom"))
print(select(2, xpcall(function() error({}) end, function(e) return "handled" end)))
local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1); return b * 2 end)
print(co(1), co(10))
warn("@on"); warn("a warning")
setmetatable({}, {__gc = function() print("gc") end})
local ok = pcall(string.rep, "x", -1)
print(ok)
print(string.format("%q", 1/3), tostring(nil), math.floor(3.7), table.concat({1, 2, 3}, ","))
-- A hook (ldo.c's luaD_hook), a yield across pcall (a C continuation), and a
-- buffer that outgrows the stack (lauxlib.c's box, resized through the allocator).
debug.sethook(function() end, "c"); print(math.max(1, 2)); debug.sethook()
local co2 = coroutine.wrap(function() print(pcall(coroutine.yield, 1)); return "done" end)
print(co2()); print(co2("resumed"))
local parts = {}
for i = 1, 200 do parts[i] = string.rep("y", 100) end
print(#table.concat(parts))
