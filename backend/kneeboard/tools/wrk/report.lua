-- Kneeboard's wrk report script (wrk -s): after wrk's own report, print one JSON line.
-- Latency figures are in microseconds; they are null when wrk recorded no latency
-- sample (all requests timed out): wrk then reports min = UINT64_MAX and zeros.
-- "latency_dist_us" is wrk's whole latency distribution: its non-zero µs buckets as
-- [value, count] pairs, lowest first (Kneeboard builds the point's HDR histogram from it).

local function number_or_null(value, has_samples)
   if not has_samples then
      return "null"
   end
   return string.format("%.3f", value)
end

-- latency(i) scans wrk's µs array from the minimum up to the i-th non-zero bucket, so
-- listing every bucket costs about (buckets × their distance from the minimum): the list
-- stops at MAX_BUCKETS pairs or MAX_SCAN array slots, and says it is "complete" or not.
local MAX_BUCKETS = 20000
local MAX_SCAN = 1e9

local function distribution(latency, has_samples)
   local buckets, scanned, last = {}, 0, latency.min
   local n = has_samples and #latency or 0
   for i = 1, n do
      if i > MAX_BUCKETS or scanned + (last - latency.min) > MAX_SCAN then
         return buckets, false
      end
      local value, count = latency(i)
      scanned, last = scanned + (value - latency.min) + 1, value
      buckets[i] = string.format("[%d,%d]", value, count)
   end
   return buckets, true
end

done = function(summary, latency, requests)
   local has_samples = latency.min <= latency.max
   local errors = summary.errors
   local duration_s = summary.duration / 1e6
   local rps = 0
   if duration_s > 0 then
      rps = summary.requests / duration_s
   end
   local errors_total = errors.connect + errors.read + errors.write + errors.status + errors.timeout
   local parts = {
      string.format('"duration_s":%.6f', duration_s),
      string.format('"requests":%d', summary.requests),
      string.format('"bytes":%d', summary.bytes),
      string.format('"rps":%.3f', rps),
      string.format('"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}',
                    errors.connect, errors.read, errors.write, errors.status, errors.timeout),
      string.format('"errors_total":%d', errors_total),
      string.format('"latency_us":{"min":%s,"max":%s,"mean":%s,"stdev":%s,'
                    .. '"p50":%s,"p75":%s,"p90":%s,"p99":%s,"p99_9":%s}',
                    number_or_null(latency.min, has_samples),
                    number_or_null(latency.max, has_samples),
                    number_or_null(latency.mean, has_samples),
                    number_or_null(latency.stdev, has_samples),
                    number_or_null(latency:percentile(50), has_samples),
                    number_or_null(latency:percentile(75), has_samples),
                    number_or_null(latency:percentile(90), has_samples),
                    number_or_null(latency:percentile(99), has_samples),
                    number_or_null(latency:percentile(99.9), has_samples)),
   }
   local buckets, complete = distribution(latency, has_samples)
   parts[#parts + 1] = '"latency_dist_us":[' .. table.concat(buckets, ",") .. ']'
   parts[#parts + 1] = '"latency_dist_complete":' .. tostring(complete)
   io.write("{" .. table.concat(parts, ",") .. "}\n")
end
