-- wrk reporter for bench/stack.py: one machine-readable line at the end of a run.
-- Latencies are in microseconds; "bad" counts answers that were not 2xx/3xx.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK requests=%d duration_us=%d bad=%d socket_errors=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration, e.status,
    e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)
  ))
end
