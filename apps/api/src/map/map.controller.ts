import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { OPTIONS_BODY_LIMIT } from '../common/json-body';
import { MapRequestDto, MapResultDto } from './dto/map.dto';
import { MapService } from './map.service';

@Controller('v1/map')
@CustomerApi('map')
export class MapController {
  constructor(private readonly maps: MapService) {}

  @Post()
  @RouteConfig({ bodyLimit: OPTIONS_BODY_LIMIT })
  @HttpCode(200)
  @ApiOperation({
    summary: "Lists a site's URLs now",
    description:
      "From robots.txt's Sitemap lines (else /sitemap.xml), the sitemaps and sitemap indexes they lead to " +
      "(gzip'd or not) and the start page's links, within a crawl's host scope. None of the URLs is " +
      'fetched. One request toward the rate limit and one page of the monthly quota.',
  })
  @ApiOkResponse({ type: MapResultDto })
  @ApiErrors(400, 402, 413, 504)
  async map(@CurrentAuth() auth: AuthContext, @Body() body: MapRequestDto): Promise<MapResultDto> {
    return this.maps.map(auth, body);
  }
}
