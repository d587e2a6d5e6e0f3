import Foundation
import Glibc

/// A real HTTPS server on 127.0.0.1 for tests: a throwaway CA and a server certificate for
/// IP:127.0.0.1 (`TestCertificates`) in a temporary folder, and `openssl s_server -WWW`
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
    public var caFile: String { certificates.caFile }
    private let certificates: TestCertificates
    private let folder: URL
    private let openssl: URL
    private var process: Process?

    /// `files`: name (no slashes) → contents, served as `/name`.
    public init(files: [String: Data]) throws {
        openssl = try TestCertificates.openssl()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tls-\(UUID().uuidString)", isDirectory: true)
        let www = folder.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        for (name, contents) in files { try contents.write(to: www.appendingPathComponent(name)) }
        switch LoopbackPort.free() {
        case .success(let port): self.port = port
        case .failure(let error): throw SetupError(error.description)
        }
        certificates = try TestCertificates(in: folder)
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

    /// `-WWW` answers `GET /name` with the file `name` of the working folder, then closes.
    private func start(serving www: URL) throws {
        let process = Process()
        process.executableURL = openssl
        process.arguments = ["s_server", "-WWW", "-quiet", "-accept", "127.0.0.1:\(port)",
                             "-cert", certificates.certificateFile, "-key", certificates.keyFile]
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
