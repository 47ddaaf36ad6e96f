// swift-tools-version: 6.3
// dewrap: lowers Swift property wrappers into the explicit code the compiler synthesizes.
// No package dependencies: the toolchain's Foundation, XCTest and Swift Testing only.
import PackageDescription

let package = Package(
    name: "dewrap",
    products: [
        .executable(name: "dewrap", targets: ["dewrap"]),
        .library(name: "DewrapSyntax", targets: ["DewrapSyntax"]),
        .library(name: "DewrapLowering", targets: ["DewrapLowering"]),
        .plugin(name: "DewrapPlugin", targets: ["DewrapPlugin"]),
        .plugin(name: "DewrapCommand", targets: ["DewrapCommand"]),
    ],
    targets: [
        // Source buffer, tokens, lexer, diagnostics. No Foundation.
        .target(name: "DewrapSyntax"),
        // The pure `lower` function: bytes in, bytes and diagnostics out.
        .target(name: "DewrapLowering", dependencies: ["DewrapSyntax"]),
        // The command-line shell: arguments, file I/O, exit codes.
        .executableTarget(name: "dewrap", dependencies: ["DewrapSyntax", "DewrapLowering", "DewrapSystem"]),
        // C for the system calls Swift's Glibc module does not declare (syncfs, for --in-place).
        .target(name: "DewrapSystem"),
        // Build-tool plugin: lowers a target's `*.swift.dewrap` files during `swift build`.
        .plugin(name: "DewrapPlugin", capability: .buildTool(), dependencies: ["dewrap"], path: "Sources/DewrapPlugin"),
        // Command plugin: `swift package dewrap [--target T…] [--in-place | --output DIR]`.
        .plugin(
            name: "DewrapCommand",
            capability: .command(
                intent: .custom(verb: "dewrap", description: "Lower property wrappers in the package's sources"),
                permissions: [.writeToPackageDirectory(reason: "dewrap rewrites or writes lowered sources")]),
            dependencies: ["dewrap"], path: "Sources/DewrapCommand"),
        // Developer checks: corpus round trip, throughput, the differential generator (bin/corpus, bin/bench, bin/differential).
        .executableTarget(name: "dewrap-dev", dependencies: ["DewrapSyntax", "DewrapLowering", "DewrapTestSupport", "DewrapSystem"]),
        // Seeded randomness and the -print-ast init signatures, shared by the tests and dewrap-dev.
        .target(name: "DewrapTestSupport", path: "Tests/DewrapTestSupport"),
        .testTarget(name: "DewrapSyntaxTests", dependencies: ["DewrapSyntax", "DewrapLowering", "DewrapTestSupport"]),
        .testTarget(name: "DewrapLoweringTests", dependencies: ["DewrapLowering", "DewrapSyntax", "DewrapTestSupport"]),
        .testTarget(name: "DewrapCLITests", dependencies: ["dewrap"]),
        .testTarget(name: "DewrapDifferentialTests", dependencies: ["dewrap", "dewrap-dev"]),
    ]
)
