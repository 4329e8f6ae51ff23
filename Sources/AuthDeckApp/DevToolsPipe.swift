import Foundation
import AuthDeckOAuth
#if canImport(Glibc)
import Glibc
#endif

/// The DevTools protocol over Chromium's `--remote-debugging-pipe`: JSON messages, each ended
/// by a NUL byte, written to the browser's fd 3 and read from its fd 4.
///
/// Used on one thread only (the sign-in window's): commands are sent and their answers read
/// there, with deadlines, so a browser that stops answering holds nothing up past them.
/// Events the browser sends on its own are dropped as they are read, so they cannot pile up.
/// Answers are read by `JSONParser` (strict, 512 levels, 16 MiB): a page the person visits
/// chooses what its cookies hold, so the text is outside input like a provider's answer.
final class DevToolsPipe {
    /// The browser closed its end: it exited, or the person closed its last window.
    struct Closed: Error {}

    /// A command the browser answered with an error, in its own words.
    struct Refused: Error, CustomStringConvertible {
        let method: String
        let message: String
        var description: String { "the browser refused \(method): \(message)" }
    }

    private let output: Int32
    private let input: Int32
    private var pending: [UInt8] = []
    private var answers: [Int64: JSONObject] = [:]
    private var lastID = 0
    /// The most a message may hold; a browser's cookie list is far smaller.
    static let messageLimit = 16 << 20

    /// `output` is the end the browser reads as fd 3, `input` the end it writes as fd 4.
    init(output: Int32, input: Int32) {
        (self.output, self.input) = (output, input)
    }

    /// Closes authdeck's ends (the browser sees end of file on its fd 3).
    func close() {
        _ = Glibc.close(output)
        _ = Glibc.close(input)
    }

    /// Sends `method` with `params`; returns the command's id.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) throws -> Int {
        lastID += 1
        var data = try JSONSerialization.data(withJSONObject: ["id": lastID, "method": method, "params": params] as [String: Any])
        data.append(0)
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let n = write(output, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Closed()
                }
                offset += n
            }
        }
        return lastID
    }

    /// Sends `method` and waits for its answer until `deadline`: the result, or nil when the
    /// deadline came first. Throws `Closed` when the browser went away, `Refused` for an error.
    func call(_ method: String, _ params: [String: Any] = [:], before deadline: Date) throws -> JSONObject? {
        let id = try send(method, params)
        while true {
            if let answer = answers.removeValue(forKey: Int64(id)) {
                if let error = answer.object("error") {
                    throw Refused(method: method, message: error.string("message") ?? "an error")
                }
                return answer.object("result") ?? JSONObject([:])
            }
            guard try readAvailable(before: deadline) else { return nil }
        }
    }

    /// Waits until `deadline` for the browser to say something (answers are kept, events
    /// dropped); false when nothing came. Throws `Closed` at end of file.
    func readAvailable(before deadline: Date) throws -> Bool {
        var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let wait = Int32(max(0, min(deadline.timeIntervalSinceNow, 60)) * 1000)
        let polled = poll(&ready, 1, wait)
        if polled == 0 { return false }
        if polled < 0 {
            if errno == EINTR { return true }
            throw Closed()
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = read(input, &buffer, buffer.count)
        if n == 0 { throw Closed() }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return true }
            throw Closed()
        }
        pending += buffer[0..<n]
        while let end = pending.firstIndex(of: 0) {
            let message = Array(pending[..<end])
            pending.removeSubrange(...end)
            if let object = JSONObject(bytes: message), let id = object.integer("id") { answers[id] = object }
        }
        if pending.count > Self.messageLimit { throw Closed() }
        return true
    }
}
