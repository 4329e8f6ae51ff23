/// Where a response body goes when it must not be held in memory (`authdeck request` of a
/// large download): written through as libcurl delivers it, with no size cap.
///
/// Why a decision on the headers: a response that asks for new credentials (401, SharePoint's
/// 403) is retried, so its body must not reach the caller's output; `accept` sees the status
/// and headers first, and a refused body is collected (capped) into the response instead.
// @unchecked: a C boundary — libcurl's write callback calls it on the transfer's thread only.
public final class BodyStream: @unchecked Sendable {
    /// Whether the body of a response with this status and these headers is streamed.
    let accept: @Sendable (Int, [HTTPHeader]) -> Bool
    /// Writes one chunk; false aborts the transfer (the output is gone, e.g. a closed pipe).
    let write: @Sendable (UnsafeRawBufferPointer) -> Bool
    /// How many bytes went through `write` (read after the transfer).
    public private(set) var written = 0

    public init(accept: @escaping @Sendable (Int, [HTTPHeader]) -> Bool,
                write: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) {
        self.accept = accept
        self.write = write
    }

    /// Hands a whole `body` to the stream when it accepts `status` and `headers`, as libcurl's
    /// callbacks do chunk by chunk: what another transport (a test's scripted network) does,
    /// so a streamed download behaves the same over it. nil: not accepted (the caller keeps
    /// the body in the response); false: the output refused it (the transfer is aborted).
    public func take(_ body: [UInt8], status: Int, headers: [HTTPHeader]) -> Bool? {
        guard accept(status, headers) else { return nil }
        return body.withUnsafeBytes { deliver($0) }
    }

    func deliver(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard write(chunk) else { return false }
        written += chunk.count
        return true
    }
}
