-- PUT /api/estimates/{id}/items with 10 summary line items and one tax rate, cycling over
-- the estimates listed in ESTIMATE_IDS (so requests do not all wait on one row lock).
local ids = {}
for id in string.gmatch(os.getenv("ESTIMATE_IDS"), "%d+") do
  table.insert(ids, id)
end
local key = os.getenv("CRM_KEY")
local tax = os.getenv("TAX_RATE_ID")
local parts = {}
for i = 0, 9 do
  table.insert(parts, string.format(
    "items%%5B%d%%5D%%5Bdescription%%5D=Line+%d&items%%5B%d%%5D%%5Bquantity%%5D=%d.5&items%%5B%d%%5D%%5Brate%%5D=%d.%02d",
    i, i, i, i + 1, i, 10 + i * 7, i * 13 % 100))
end
table.insert(parts, "tax_rate_ids%5B%5D=" .. tax)
local body = table.concat(parts, "&")
local headers = {
  ["Content-Type"] = "application/x-www-form-urlencoded",
  ["Authorization"] = "Bearer " .. key,
}
local n = math.random(#ids)
request = function()
  n = n % #ids + 1
  return wrk.format("PUT", "/api/estimates/" .. ids[n] .. "/items", headers, body)
end
