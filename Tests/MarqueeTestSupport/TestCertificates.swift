import Foundation

/// A throwaway CA and a server certificate for IP:127.0.0.1 (EC P-256, valid 2 days), made with
/// the `openssl` CLI in a folder the caller owns: what the TLS test servers (`TLSFileServer`,
/// `MosquittoBroker(tls: true)`) present and what their clients trust. A machine without openssl
/// fails the test with that message (Scripts/install-dependencies.sh installs it), never skips it.
public struct TestCertificates: Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The CA's certificate (PEM), for the client to trust.
    public let caFile: String
    /// The server's certificate (PEM, signed by the CA, subjectAltName IP:127.0.0.1) and its key.
    public let certificateFile: String
    public let keyFile: String

    /// The `openssl` CLI, or a SetupError saying it is missing.
    public static func openssl() throws -> URL {
        guard let openssl = ["/usr/bin", "/usr/local/bin", "/bin"].map({ URL(fileURLWithPath: $0).appendingPathComponent("openssl") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw SetupError("openssl is not installed (apt-get install openssl, or Scripts/install-dependencies.sh); the TLS tests make their CA with it")
        }
        return openssl
    }

    /// Writes ca.pem, ca.key, server.pem, server.key (and the CSR and extension files) into `folder`.
    public init(in folder: URL) throws {
        let openssl = try Self.openssl()
        caFile = folder.appendingPathComponent("ca.pem").path
        certificateFile = folder.appendingPathComponent("server.pem").path
        keyFile = folder.appendingPathComponent("server.key").path
        // EC P-256 keys: generated in milliseconds, unlike RSA.
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.run(openssl, in: folder, ["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                     "-subj", "/CN=Marquee test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.run(openssl, in: folder, ["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: folder.appendingPathComponent("server.ext"))
        try Self.run(openssl, in: folder, ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                     "-out", "server.pem", "-days", "2", "-extfile", "server.ext"])
    }

    private static func run(_ openssl: URL, in folder: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = openssl
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SetupError("openssl \(arguments.joined(separator: " ")) failed: \(text)") }
    }
}
