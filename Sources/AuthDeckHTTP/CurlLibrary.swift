import CCurl

/// Loads libcurl on first use, so commands that never touch the network never pay for it.
public enum CurlLibrary {
    /// Loads libcurl (idempotent, thread-safe) or throws with the loader's reason.
    public static func load() throws {
        var buffer = [CChar](repeating: 0, count: 512)
        guard ad_curl_load(&buffer, buffer.count) == 0 else {
            throw CurlLoadError(message: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Begins `load()` on a thread of its own and returns at once, for a process that will
    /// almost surely use the network: the load (~10 ms) overlaps the caller's own start. A
    /// request waits for it; a process that exits first waits for a load under way.
    public static func preload() {
        ad_curl_preload()
    }

    /// `load()` with its failure as an `HTTPError`, for the request path.
    static func loadForHTTP() throws {
        do { try load() } catch let error as CurlLoadError { throw HTTPError.unavailable(error.message) }
    }

    /// The loaded library's version line (`libcurl/7.88.1 OpenSSL/3.0.x …`).
    public static var version: String {
        String(cString: ad_curl_version())
    }
}

/// libcurl could not be loaded; the message says why.
public struct CurlLoadError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
