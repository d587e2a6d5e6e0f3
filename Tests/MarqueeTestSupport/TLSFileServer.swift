import Foundation
import Glibc

/// A real HTTPS server on 127.0.0.1 for tests: a throwaway CA and a server certificate for
/// IP:127.0.0.1 made with the `openssl` CLI in a temporary folder, and `openssl s_server -WWW`
/// serving the given files from it on a free port. A machine without openssl fails the test with
/// that message (Scripts/install-dependencies.sh installs it), never skips it. Call `stop()` when
/// done (a `defer` right after creating it); `deinit` stops it too.
public final class TLSFileServer: @unchecked Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public let port: UInt16
    /// The CA's certificate (PEM), for the client to trust.
    public let caFile: String
    private let folder: URL
    private let openssl: URL
    private var process: Process?

    /// `files`: name (no slashes) → contents, served as `/name`.
    public init(files: [String: Data]) throws {
        guard let openssl = ["/usr/bin", "/usr/local/bin", "/bin"].map({ URL(fileURLWithPath: $0).appendingPathComponent("openssl") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw SetupError("openssl is not installed (apt-get install openssl, or Scripts/install-dependencies.sh); the TLS tests make their CA and run their server with it")
        }
        self.openssl = openssl
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tls-\(UUID().uuidString)", isDirectory: true)
        let www = folder.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        caFile = folder.appendingPathComponent("ca.pem").path
        for (name, contents) in files { try contents.write(to: www.appendingPathComponent(name)) }
        switch LoopbackPort.free() {
        case .success(let port): self.port = port
        case .failure(let error): throw SetupError(error.description)
        }
        try makeCertificates()
        try start(serving: www)
    }

    deinit { stop() }

    public func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// SIGKILL (processes started from a test's thread inherit its blocked signals, SIGTERM among
    /// them), then the folder goes.
    public func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        process = nil
        try? FileManager.default.removeItem(at: folder)
    }

    /// EC P-256 keys: generated in milliseconds, unlike RSA.
    private func makeCertificates() throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                 "-subj", "/CN=Marquee test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try run(["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: folder.appendingPathComponent("server.ext"))
        try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "server.pem", "-days", "2", "-extfile", "server.ext"])
    }

    private func run(_ arguments: [String]) throws {
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

    /// `-WWW` answers `GET /name` with the file `name` of the working folder, then closes.
    private func start(serving www: URL) throws {
        let process = Process()
        process.executableURL = openssl
        process.arguments = ["s_server", "-WWW", "-quiet", "-accept", "127.0.0.1:\(port)",
                             "-cert", folder.appendingPathComponent("server.pem").path,
                             "-key", folder.appendingPathComponent("server.key").path]
        process.currentDirectoryURL = www
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning {
            if LoopbackPort.acceptsConnections(port) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw SetupError("openssl s_server did not listen on 127.0.0.1:\(port)")
    }
}
