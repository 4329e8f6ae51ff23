import Synchronization
import AuthDeckHTTP

/// A browser that opens nothing and keeps the URLs it was asked to open.
final class RecordingBrowser: URLOpening {
    private let urls = Mutex([String]())
    var opened: [String] { urls.withLock { $0 } }

    func open(_ url: String) -> String? {
        urls.withLock { $0.append(url) }
        return "recording-browser"
    }
}
