// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TraitKit",
    products: [
        .library(name: "TraitKit", targets: ["TraitKit"]),
        .library(name: "TraitKitLua", targets: ["TraitKitLua"]),
        .executable(name: "traitkit", targets: ["TraitKitCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // libedit for the REPL, opened when the REPL starts (not linked: see editline.c).
        .target(name: "CEditLine"),
        .target(name: "CThreadStack"),
        .target(name: "TraitKit", dependencies: ["CThreadStack"]),
        .target(name: "CSupport", dependencies: ["CLua"]),
        .target(name: "TraitKitLua", dependencies: ["TraitKit", "CLua", "CSupport"]),
        // luaopen_traitkit, for the C module Scripts/build-lua-module builds (no SwiftPM
        // product: SwiftPM would link liblua into it, and the interpreter provides Lua).
        .target(name: "TraitKitLuaModule", dependencies: ["TraitKitLua"]),
        // What `traitkit bench` times the everyday operations against: a binding with no engine.
        .target(name: "CBareBinding", dependencies: ["CLua"]),
        .executableTarget(
            name: "TraitKitCLI",
            dependencies: [
                "TraitKitLua",
                "CLua",
                "CEditLine",
                "CSupport",
                "CBareBinding",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TraitKitTests", dependencies: ["TraitKit"]),
        .testTarget(name: "TraitKitLuaTests", dependencies: ["TraitKitLua", "TraitKit"]),
    ],
    swiftLanguageModes: [.v6]
)
