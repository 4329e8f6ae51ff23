import Dispatch
import Synchronization

/// Runs tasks on threads of its own, not Swift's shared pool.
///
/// Why: Swift Testing runs synchronous tests on the shared threads, and tests that wait by
/// blocking (tmux, subprocesses) can hold them for minutes; work a test hands to background
/// tasks (the deck's) then waits behind them. Serial dispatch queues are used because each
/// gets an overcommitting thread — a concurrent queue shares the starved root queue.
public final class ThreadExecutor: TaskExecutor {
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    public init(label: String = "authdeck.test-executor", threads: Int = 4) {
        queues = (0..<max(1, threads)).map { DispatchQueue(label: "\(label).\($0)") }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let i = next.add(1, ordering: .relaxed).oldValue
        queues[i % queues.count].async { job.runSynchronously(on: executor) }
    }
}
