import Foundation
import AuthDeckEmulator

// authdeck-idp [--port N] [--directory FILE] [--site HOST]
// Serves the provider emulator on 127.0.0.1 and prints one line to parse:
//   authdeck-idp ready url=http://127.0.0.1:PORT pid=PID
var port: UInt16 = 0
var directory = EmulatorDirectory.standard
var site = "contoso.sharepoint.com"
var args = CommandLine.arguments.dropFirst()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("authdeck-idp: \(message)\n".utf8))
    exit(2)
}
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
    case "-h", "--help":
        FileHandle.standardOutput.write(Data("usage: authdeck-idp [--port N] [--directory FILE] [--site HOST]\n".utf8))
        exit(0)
    default:
        fail("unknown argument \(arg) (try --help)")
    }
}
do {
    let server = try EmulatorServer(port: port, directory: directory, siteHost: site)
    let task = Task { try await server.run() }
    try await server.waitUntilListening()
    FileHandle.standardOutput.write(Data("authdeck-idp ready url=\(server.baseURL) pid=\(getpid())\n".utf8))
    _ = try await task.value
} catch {
    fail("\(error)")
}
