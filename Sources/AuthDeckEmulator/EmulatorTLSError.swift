/// Why the emulator's TLS listener or the demo's certificates could not be set up, in OpenSSL's
/// words after ours (a file named, the library's reason).
public struct EmulatorTLSError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
