import Foundation

/// A running child process whose output can be polled while it runs (device-code prompts,
/// servers' ready lines). Killed by pid when released, so no test leaves one behind.
public final class LiveProcess: @unchecked Sendable {
    let process = Process()
    private let output = OutputBuffer()

    public init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [output] h in output.append(h.availableData, toError: false) }
        err.fileHandleForReading.readabilityHandler = { [output] h in output.append(h.availableData, toError: true) }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var stdout: String { output.text(error: false) }
    public var stderr: String { output.text(error: true) }

    /// Polls stderr+stdout until `find` returns a value, or fails after `timeout` seconds.
    public func waitFor<T>(timeout: Double = 30, _ what: String, _ find: (String) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = find(stderr + stdout) { return found }
            if !process.isRunning, let found = find(stderr + stdout) { return found }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw NSError(domain: "LiveProcess", code: 1, userInfo: [NSLocalizedDescriptionKey:
            "waited \(Int(timeout)) s for \(what); output so far:\n\(stderr)\n\(stdout)"])
    }

    /// Fails if the process ends within `seconds` (a sign-in that gave up while the person was
    /// still reading the code); checked every 20 ms.
    public func keepsRunning(for seconds: Double, _ what: String) throws {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            guard process.isRunning else {
                throw NSError(domain: "LiveProcess", code: 3, userInfo: [NSLocalizedDescriptionKey:
                    "ended (status \(process.terminationStatus)) before \(what); output:\n\(stderr)\n\(stdout)"])
            }
            usleep(20_000)
        }
    }

    /// Waits for exit (polling), returning the status; kills the process on timeout.
    public func wait(timeout: Double = 60) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            throw NSError(domain: "LiveProcess", code: 2, userInfo: [NSLocalizedDescriptionKey: "still running after \(Int(timeout)) s"])
        }
        usleep(50_000)  // let the readability handlers drain the pipes
        return process.terminationStatus
    }

    /// Whether the process ended of a signal (then `wait`'s status is the signal's number).
    public var endedBySignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

/// Output collected from a child's pipes on handler threads.
final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()

    func append(_ data: Data, toError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if toError { err.append(data) } else { out.append(data) }
    }

    func text(error: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: error ? err : out, as: UTF8.self)
    }
}

extension LiveProcess {
    /// The port a test server announced on standard output as `ready port=N` (the harnesses
    /// under Tests/harness say it so).
    public func readyPort(_ what: String) throws -> Int {
        try waitFor(what) { text -> Int? in
            guard let r = text.range(of: "ready port=") else { return nil }
            return Int(text[r.upperBound...].prefix { $0.isNumber })
        }
    }
}
