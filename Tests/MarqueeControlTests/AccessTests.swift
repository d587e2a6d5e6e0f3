import Foundation
import Glibc
import MarqueeCore
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    /// Root ignores file permissions, so the connecting side runs as nobody (uid 65534) through
    /// setpriv, with or without the socket's group.
    @Suite struct Access {
        static let setpriv = "/usr/bin/setpriv"
        static let python = "/usr/bin/python3"
        static let script = """
            import errno, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(sys.argv[1])
            except OSError as e:
                print(type(e).__name__, errno.errorcode.get(e.errno, e.errno)); sys.exit(0)
            s.sendall(b"hello from nobody\\n")
            print("ok", s.makefile("rb").readline().decode().strip())
            """

        @Test func theSocketIsMode0660AndClosedToOtherUsers() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            var status = stat()
            try #require(lstat(fixture.path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            #expect(status.st_mode & 0o7777 == 0o660)
            #expect(status.st_uid == getuid() && status.st_gid == getgid())

            try #require(FileManager.default.isExecutableFile(atPath: Self.setpriv), "\(Self.setpriv) is missing (util-linux); this test needs it to connect as another user")
            try #require(FileManager.default.isExecutableFile(atPath: Self.python), "\(Self.python) is missing; this test needs it to connect as another user")

            let outsider = try Self.connectAsNobody(group: 65534, path: fixture.path)
            #expect(outsider == "PermissionError EACCES")

            let member = try Self.connectAsNobody(group: status.st_gid, path: fixture.path)
            #expect(member == "ok hello from nobody")
            let peer = try #require(fixture.peers.last)
            #expect(peer.uid == 65534)
            #expect(peer.gid == status.st_gid)
            #expect(fixture.logs.contains("control: client \(peer.id) connected (uid 65534, pid \(peer.pid), role admin)"))
            #expect(fixture.peers.count == 1)  // the outsider never got in
        }

        /// `control.roles` reads the peer's credentials from the kernel: the uid's own grant first
        /// (nobody, by name), else its groups' (the primary gid SO_PEERCRED names), else others.
        @Test func rolesComeFromThePeersUserAndGroups() throws {
            try #require(FileManager.default.isExecutableFile(atPath: Self.setpriv), "\(Self.setpriv) is missing (util-linux); this test needs it to connect as another user")
            let group = getgid()
            func roleOfNobody(_ roles: SocketRoles) throws -> ControlPeer? {
                let fixture = try ControlSocketFixture(roles: roles)
                defer { fixture.stop() }
                let answer = try Self.connectAsNobody(group: group, path: fixture.path)
                #expect(answer == "ok hello from nobody")
                let peer = fixture.peers.last
                if let peer {
                    #expect(fixture.logs.contains("control: client \(peer.id) connected (uid 65534, pid \(peer.pid), role \(peer.role.rawValue))"))
                }
                return peer
            }
            #expect(try roleOfNobody(SocketRoles([.init(.group("\(group)"), .control), .init(.others, .observe)]))?.role == .control)
            #expect(try roleOfNobody(SocketRoles([.init(.user("nobody"), .observe), .init(.group("\(group)"), .admin)]))?.role == .observe)
            #expect(try roleOfNobody(SocketRoles([.init(.user("alice-not-here"), .observe), .init(.others, .observe)]))?.role == .observe)
            #expect(try roleOfNobody(SocketRoles([.init(.user("alice-not-here"), .observe)]))?.role == .admin)
        }

        /// What the Python client printed: `ok REPLY` or `EXCEPTION ERRNO_NAME`.
        static func connectAsNobody(group: UInt32, path: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--reuid=65534", "--regid=\(group)", "--clear-groups", python, "-I", "-c", script, path]
            process.currentDirectoryURL = URL(fileURLWithPath: "/")
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
