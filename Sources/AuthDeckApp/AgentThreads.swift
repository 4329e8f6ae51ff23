import Dispatch
import Synchronization

/// The agent's own threads: every connection's task runs on them, not on Swift's shared pool.
///
/// Why: the shared pool has as many threads as cores, and whatever else the process runs on
/// it (the deck's work, a test that blocks) can hold them all; a remote waiting for its token
/// must not queue behind that. Serial dispatch queues, because each gets a thread of its own
/// where a concurrent queue would share the starved one.
final class AgentThreads: TaskExecutor {
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    init(threads: Int = 4) {
        queues = (0..<max(1, threads)).map { DispatchQueue(label: "authdeck.agent.\($0)") }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let i = next.add(1, ordering: .relaxed).oldValue
        queues[i % queues.count].async { job.runSynchronously(on: executor) }
    }
}
