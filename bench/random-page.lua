-- wrk: the report's HTML pages, as bench/clickhouse-vs-duckdb.sh asks for them.
--   MODE=first   the page a reader opens: /crawl-errors, the default report's first page
--   MODE=random  a random page of a random view; VIEWS lists them as QUERY|PAGES;QUERY|PAGES...
--                (QUERY empty for the default view), each view's pages as the bench read them
local mode = os.getenv("MODE") or "first"
local views = {}
for query, pages in string.gmatch(os.getenv("VIEWS") or "|1", "([^;|]*)|(%d+)") do
  views[#views + 1] = {query = query, pages = math.max(1, tonumber(pages))}
end
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  math.randomseed(os.time() * 100 + (id or 0))
end

function request()
  if mode == "first" then
    return wrk.format("GET", "/crawl-errors")
  end
  local view = views[math.random(1, #views)]
  local query = view.query == "" and "" or view.query .. "&"
  return wrk.format("GET", "/crawl-errors?" .. query .. "page=" .. math.random(1, view.pages))
end
