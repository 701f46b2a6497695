<?php
// Loads a YAML route file with Symfony 5.4's YamlFileLoader and prints each route (in matching
// order) as JSON: name, path, host, defaults (without _controller), requirements, methods,
// schemes, options.utf8, controller (the _controller default), plus the aliases.
// Usage: php loader.php <file.yaml>
require_once '/usr/share/php/Symfony/Component/Routing/autoload.php';
require_once '/usr/share/php/Symfony/Component/Config/autoload.php';
require_once '/usr/share/php/Symfony/Component/Yaml/autoload.php';

use Symfony\Component\Config\FileLocator;
use Symfony\Component\Config\Loader\LoaderResolver;
use Symfony\Component\Routing\Loader\YamlFileLoader;

$file = realpath($argv[1]);
try {
    $loader = new YamlFileLoader(new FileLocator(dirname($file)));
    $loader->setResolver(new LoaderResolver([$loader]));
    $routes = $loader->load($file);
} catch (\Throwable $e) {
    echo json_encode(['error' => get_class($e), 'message' => $e->getMessage()]);
    exit(0);
}
$out = ['routes' => [], 'aliases' => []];
foreach ($routes->all() as $name => $r) {
    $defaults = $r->getDefaults();
    unset($defaults['_controller']);
    $out['routes'][] = [
        'name' => $name, 'path' => $r->getPath(), 'host' => $r->getHost(), 'defaults' => (object) $defaults,
        'requirements' => (object) $r->getRequirements(), 'methods' => $r->getMethods(), 'schemes' => $r->getSchemes(),
        'utf8' => $r->getOption('utf8'), 'controller' => $r->getDefault('_controller'),
    ];
}
foreach ($routes->getAliases() as $name => $a) {
    $out['aliases'][] = ['name' => $name, 'target' => $a->getId(), 'deprecation' => $a->isDeprecated() ? $a->getDeprecation($name) : null];
}
echo json_encode($out);
