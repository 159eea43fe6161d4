-- each wrk thread its own pages (2..PAGES, by parity), each page asked once in a shuffled order
local pages, at = tonumber(os.getenv("PAGES")), os.getenv("AT")
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end
local list, i
function init(args)
  math.randomseed(4242 + id)
  list = {}
  for p = 2, pages do
    if p % 2 == id - 1 then list[#list + 1] = p end
  end
  for k = #list, 2, -1 do
    local j = math.random(1, k)
    list[k], list[j] = list[j], list[k]
  end
  i = 0
end
request = function()
  i = i + 1
  if i > #list then i = 1 end
  return wrk.format("GET", "/api/crawl-errors?page=" .. list[i] .. "&at=" .. at)
end
