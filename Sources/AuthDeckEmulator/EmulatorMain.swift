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
///     authdeck-idp [--port N] [--directory FILE] [--site HOST]
///                  [--tls-cert FILE --tls-key FILE [--tls-port N]] [--exit-with-parent PID [--remove DIR]]
///
/// Serves the provider emulator on 127.0.0.1 and prints one line to parse:
/// `authdeck-idp ready url=http://127.0.0.1:PORT pid=PID`, ending in ` tls=https://127.0.0.1:PORT`
/// when it also serves https (every route, as a registry behind TLS is met). With --exit-with-parent it exits once
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
        var tlsCertificate: String?, tlsKey: String?
        var tlsPort: UInt16 = 0
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
            case "--tls-cert":
                guard let path = args.popFirst() else { fail("--tls-cert takes a PEM certificate file") }
                tlsCertificate = path
            case "--tls-key":
                guard let path = args.popFirst() else { fail("--tls-key takes a PEM private key file") }
                tlsKey = path
            case "--tls-port":
                guard let v = args.popFirst(), let p = UInt16(v) else { fail("--tls-port takes a port number") }
                tlsPort = p
            case "--exit-with-parent":
                guard let v = args.popFirst(), let pid = Int32(v), pid > 1 else { fail("--exit-with-parent takes the parent's pid") }
                exitWithParent = pid
            case "--remove":
                guard let dir = args.popFirst(), ParentWatch.isDemoDirectory(dir) else {
                    fail("--remove takes a directory of your own named authdeck-demo-*")
                }
                removeOnOrphan = dir
            case "-h", "--help":
                FileHandle.standardOutput.write(Data("""
                    usage: authdeck-idp [--port N] [--directory FILE] [--site HOST]
                                        [--tls-cert FILE --tls-key FILE [--tls-port N]] [--exit-with-parent PID [--remove DIR]]

                    """.utf8))
                exit(0)
            default:
                fail("unknown argument \(arg) (try --help)")
            }
        }
        if (tlsCertificate == nil) != (tlsKey == nil) { fail("--tls-cert and --tls-key go together: give both, or neither") }
        if tlsCertificate == nil, tlsPort != 0 { fail("--tls-port needs --tls-cert and --tls-key") }
        if let parent = exitWithParent { ParentWatch.start(parent: parent, removing: removeOnOrphan) }
        do {
            let tls = tlsCertificate.flatMap { cert in tlsKey.map { (certificateFile: cert, keyFile: $0, port: tlsPort) } }
            let server = try EmulatorServer(port: port, directory: directory, siteHost: site, tls: tls)
            let task = Task { try await server.run() }
            try await server.waitUntilListening()
            let https = server.tlsURL.map { " tls=\($0)" } ?? ""
            FileHandle.standardOutput.write(Data("authdeck-idp ready url=\(server.baseURL) pid=\(getpid())\(https)\n".utf8))
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
