/// How long to wait before renewing an account again after renewals that failed for a passing
/// reason (network, timeout, 5xx): one policy for `watch` and the open deck.
///
/// Why: a provider that is down should not be asked every few seconds for as long as it is
/// down, yet a blip should be retried soon.
public enum RenewalBackoff {
    /// The wait after `failures` failures in a row: 5 s, doubling up to 5 minutes.
    public static func wait(afterFailures failures: Int) -> TimeSpan {
        .seconds(min(300, 5 << min(max(failures, 1) - 1, 6)))
    }
}
