import Foundation

/// Runs a built product (the real `authdeck` binary), or any program a test drives (curl,
/// the MSAL harness), and captures its output.
public struct BinaryRunner: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public let executable: String
    public var environment: [String: String]

    /// The `authdeck` binary living in `home`: its own HOME and XDG directories (so nothing of
    /// the machine's real store or config is touched), a fixed PATH and a UTF-8 locale, plus
    /// `extra` (provider secrets by environment variable, XDG_RUNTIME_DIR…).
    public static func authdeck(home: TempDirectory, _ extra: [String: String] = [:]) -> BinaryRunner {
        BinaryRunner(product: "authdeck", environment: [
            "HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"),
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ].merging(extra) { _, new in new })
    }

    /// Finds `name` next to the test bundle (`.build/<config>/`), where SwiftPM puts products.
    public init(product name: String, environment: [String: String]) {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidates = [here.appendingPathComponent(name).path]
        // Bundles may be nested (`X.xctest/Contents/MacOS`); walk up a few levels.
        var dir = here
        for _ in 0..<4 {
            dir = dir.deletingLastPathComponent()
            candidates.append(dir.appendingPathComponent(name).path)
        }
        executable = candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
        self.environment = environment
    }

    /// Runs the program at `executable` (this process's environment unless given).
    public init(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.executable = executable
        self.environment = environment
    }

    /// Runs with `arguments` and `env` added to the environment, feeding `stdin`, waiting at
    /// most `timeout` seconds, in `directory` (else the test's own).
    public func run(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, timeout: TimeInterval = 60,
                    directory: String? = nil) throws -> Result {
        let process = Process()
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(env) { _, new in new }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { Self.feed(Array(stdin.utf8), to: input.fileHandleForWriting.fileDescriptor) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw NSError(domain: "BinaryRunner", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(arguments) timed out"])
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Writes `bytes` to a child's stdin. A child that exits before reading it (a refusal said
    /// before any input is read) costs this write only: SIGPIPE is blocked on this thread for
    /// the write and a pending one taken, where it used to end the whole test process (signal
    /// 13) — and with it every test running beside.
    static func feed(_ bytes: [UInt8], to fd: Int32) {
        var pipeSignal = sigset_t(), saved = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &saved)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &saved, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
