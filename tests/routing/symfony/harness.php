<?php
// Runs Symfony 5.4's CompiledUrlMatcher (redirectable or not) over route tables and requests
// read as JSON from stdin; writes one outcome per request as JSON to stdout.
// Input: [{"routes": [{"name","path","defaults","requirements","methods","schemes","host","priority"}], "requests": [{"path","method","host","scheme","redirectable"}]}]
require_once '/usr/share/php/Symfony/Component/Routing/autoload.php';

use Symfony\Component\Routing\Exception\MethodNotAllowedException;
use Symfony\Component\Routing\Exception\NoConfigurationException;
use Symfony\Component\Routing\Exception\ResourceNotFoundException;
use Symfony\Component\Routing\Matcher\CompiledUrlMatcher;
use Symfony\Component\Routing\Matcher\Dumper\CompiledUrlMatcherDumper;
use Symfony\Component\Routing\Matcher\RedirectableUrlMatcherInterface;
use Symfony\Component\Routing\RequestContext;
use Symfony\Component\Routing\Route;
use Symfony\Component\Routing\RouteCollection;

class HarnessRedirectableMatcher extends CompiledUrlMatcher implements RedirectableUrlMatcherInterface
{
    public function redirect(string $path, string $route, ?string $scheme = null): array
    {
        return ['_redirect' => ['pathInfo' => $path] + (null === $scheme ? [] : ['scheme' => $scheme]), '_route' => $route];
    }
}

$out = [];
foreach (json_decode(stream_get_contents(STDIN), true) as $case) {
    $collection = new RouteCollection();
    foreach ($case['routes'] as $r) {
        $collection->add($r['name'], new Route($r['path'], $r['defaults'] ?? [], $r['requirements'] ?? [], ['utf8' => true], $r['host'] ?? '', $r['schemes'] ?? [], $r['methods'] ?? []), $r['priority'] ?? 0);
    }
    try {
        $compiled = (new CompiledUrlMatcherDumper($collection))->getCompiledRoutes();
    } catch (\Throwable $e) {
        $out[] = ['compileError' => get_class($e).': '.$e->getMessage()];
        continue;
    }
    $results = [];
    foreach ($case['requests'] as $q) {
        $context = new RequestContext('', $q['method'], $q['host'], $q['scheme']);
        $matcher = ($q['redirectable'] ?? true) ? new HarnessRedirectableMatcher($compiled, $context) : new CompiledUrlMatcher($compiled, $context);
        try {
            $ret = @$matcher->match($q['path']);
            $route = $ret['_route'];
            $redirect = $ret['_redirect'] ?? null;
            unset($ret['_route'], $ret['_redirect']);
            $r = ['kind' => 'match', 'route' => $route, 'params' => (object) $ret];
            if (null !== $redirect) $r['redirect'] = $redirect;
            $results[] = $r;
        } catch (MethodNotAllowedException $e) {
            $results[] = ['kind' => 'error', 'error' => 'MethodNotAllowedError', 'message' => $e->getMessage(), 'allowedMethods' => $e->getAllowedMethods()];
        } catch (NoConfigurationException $e) {
            $results[] = ['kind' => 'error', 'error' => 'NoConfigurationError', 'message' => 'No routes found for "/".'];
        } catch (ResourceNotFoundException $e) {
            $results[] = ['kind' => 'error', 'error' => 'ResourceNotFoundError', 'message' => $e->getMessage()];
        } catch (\Throwable $e) {
            $results[] = ['kind' => 'crash', 'message' => get_class($e).': '.$e->getMessage()];
        }
    }
    $out[] = ['results' => $results];
}
echo json_encode($out, JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
