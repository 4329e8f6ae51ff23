import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The emulator's command line, one for both ways it is started.
///
/// Why: the emulator is the `authdeck-idp` product in a build tree and, installed, a mode of
/// authdeck-full (`libexec/authdeck/authdeck-idp` is a link to it) — one copy of Foundation and
/// the shared code on disk instead of two; both entry points run this.
///
///     authdeck-idp [--port N] [--directory FILE] [--site HOST] [--exit-with-parent PID [--remove DIR]]
///
/// Serves the provider emulator on 127.0.0.1 and prints one line to parse:
/// `authdeck-idp ready url=http://127.0.0.1:PORT pid=PID`. With --exit-with-parent it exits once
/// its parent is no longer PID, however that process ended (the demo killed with SIGKILL
/// included), removing the demo directory --remove names.
public enum EmulatorMain {
    /// The name that selects this mode: the product's, and the installed link's.
    public static let programName = "authdeck-idp"

    /// Whether `argv0` (a path or a bare name) names the emulator.
    public static func isInvoked(as argv0: String) -> Bool {
        argv0 == programName || argv0.hasSuffix("/" + programName)
    }

    /// Parses `arguments` (without the program name), serves until killed; never returns.
    public static func run(_ arguments: [String]) async -> Never {
        var port: UInt16 = 0
        var exitWithParent: Int32?
        var removeOnOrphan: String?
        var directory = EmulatorDirectory.standard
        var site = "contoso.sharepoint.com"
        var args = arguments[...]
        while let arg = args.popFirst() {
            switch arg {
            case "--port":
                guard let v = args.popFirst(), let p = UInt16(v) else { fail("--port takes a port number") }
                port = p
            case "--directory":
                guard let path = args.popFirst() else { fail("--directory takes a JSON file") }
                do { directory = try EmulatorDirectory.load(path) } catch { fail("\(path): \(error)") }
            case "--site":
                guard let host = args.popFirst() else { fail("--site takes a host name") }
                site = host
            case "--exit-with-parent":
                guard let v = args.popFirst(), let pid = Int32(v), pid > 1 else { fail("--exit-with-parent takes the parent's pid") }
                exitWithParent = pid
            case "--remove":
                guard let dir = args.popFirst(), ParentWatch.isDemoDirectory(dir) else {
                    fail("--remove takes a directory of your own named authdeck-demo-*")
                }
                removeOnOrphan = dir
            case "-h", "--help":
                FileHandle.standardOutput.write(Data("usage: authdeck-idp [--port N] [--directory FILE] [--site HOST] [--exit-with-parent PID [--remove DIR]]\n".utf8))
                exit(0)
            default:
                fail("unknown argument \(arg) (try --help)")
            }
        }
        if let parent = exitWithParent { ParentWatch.start(parent: parent, removing: removeOnOrphan) }
        do {
            let server = try EmulatorServer(port: port, directory: directory, siteHost: site)
            let task = Task { try await server.run() }
            try await server.waitUntilListening()
            FileHandle.standardOutput.write(Data("authdeck-idp ready url=\(server.baseURL) pid=\(getpid())\n".utf8))
            _ = try await task.value
            exit(0)
        } catch {
            fail("\(error)")
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("authdeck-idp: \(message)\n".utf8))
        exit(2)
    }
}
