import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Picks a free TCP port on 127.0.0.1 by binding port 0 and reading back what the kernel chose.
public enum FreePort {
    public static func pick() -> UInt16 {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sock) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) } }
        return UInt16(bigEndian: addr.sin_port)
    }
}
