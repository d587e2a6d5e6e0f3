import Foundation
import Logging
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueePlayer

/// The control socket of one `marquee play`: where it listens (`--control`, `control.socket`, else
/// the runtime folder), the server and the service that turns its requests into commands. The
/// server's sources (listener, clients, deadlines) run on the session's control-plane loop, which
/// the session starts and stops; `stop` ends them without stopping the loop. A socket that cannot
/// be made is one error line and playback goes on without it.
package final class ControlEndpoint: @unchecked Sendable {
    package let service: ControlService
    private let server: ControlSocketServer

    private init(service: ControlService, server: ControlSocketServer) {
        self.service = service
        self.server = server
    }

    package static func make(_ configuration: ControlConfiguration, player: QueuePlayer, screens: [ScreenshotPublishing.Screen] = [],
                             host: ControlHost, loop: ControlPlaneLoop, logger: Logger) -> ControlEndpoint? {
        let path: String
        switch configuration.socket {
        case .none:
            return nil
        case .path(let given):
            path = given
        case .automatic:
            guard let found = ControlSocketLocation.defaultPath() else {
                logger.info("control: no socket (no $RUNTIME_DIRECTORY, /run/marquee is not writable and $XDG_RUNTIME_DIR is unset); set control.socket or --control PATH")
                return nil
            }
            path = found
        }
        let service = ControlService(player: player, host: host, screens: screens, log: { [logger] in logger.info("\($0)") })
        do {
            let server = try ControlSocketServer(
                path: path,
                loop: loop,
                roles: configuration.roles,
                log: { [logger] level, line in level == .warning ? logger.warning("\(line)") : logger.info("\(line)") },
                onConnect: { service.connected($0) },
                onInput: { peer, input in service.handle(input, from: peer) },
                onDisconnect: { service.disconnected($0) })
            service.attach(server)
            return ControlEndpoint(service: service, server: server)
        } catch {
            logger.error("control: \(error); playing on without a control socket")
            return nil
        }
    }

    package func start() { server.start() }

    package func stop() { server.stop() }
}
