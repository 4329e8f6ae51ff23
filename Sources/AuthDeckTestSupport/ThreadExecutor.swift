import Dispatch

/// Runs tasks on threads of its own (a concurrent dispatch queue), not Swift's shared pool.
///
/// Why: Swift Testing runs synchronous tests on the shared pool, and tests that wait by
/// blocking (tmux, subprocesses) can hold all of its few threads for minutes; work a test
/// hands to background tasks (the deck's) then waits behind them.
public final class ThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String = "authdeck.test-executor") {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
